// The order wizard's steps, in order: the draft schema stores the step a draft was left on, and the
// dashboard's pages (components/orders/wizard-steps) route by them.
export const WIZARD_STEPS = ["locations", "what", "when", "delivery", "review"] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];
