// The card processor behind confirmations and refunds. A real processor (Stripe, Adyen…) plugs in
// behind this interface; the embedded default is the test-mode processor beside this file.
export type ChargeOutcome =
  | { status: "succeeded"; reference: string }
  | { status: "requires_action"; reference: string }
  | { status: "failed"; reference: string | null; failureCode: string; failureMessage: string };

export interface ChargeRequest {
  amountCents: number;
  currency: string;
  paymentMethod: string;
  /** Ours: the processor must not charge twice for the same key (retries after a crash). */
  idempotencyKey: string;
  description: string;
}

export interface PaymentProvider {
  readonly name: string;
  readonly testMode: boolean;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /** Completes a charge that required the customer's authentication. */
  completeAuthentication(reference: string, authenticated: boolean): Promise<ChargeOutcome>;
  refund(request: {
    chargeReference: string;
    amountCents: number;
    idempotencyKey: string;
  }): Promise<{ status: "succeeded" | "failed"; reference: string | null }>;
}
