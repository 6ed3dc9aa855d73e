// A test-mode card processor that behaves like a real one: documented test payment methods that
// succeed, are declined, or need the customer's authentication (3-D Secure), PaymentIntent-like
// states, and idempotent charges. It moves no money; references are opaque like a processor's.
import { createHash } from "node:crypto";
import type { ChargeOutcome, ChargeRequest, PaymentProvider } from "./payment-provider";

export const TEST_PAYMENT_METHODS = {
  pm_card_visa: "Succeeds.",
  pm_card_mastercard: "Succeeds.",
  pm_card_declined: "Declined: card_declined.",
  pm_card_insufficient_funds: "Declined: insufficient_funds.",
  pm_card_authentication_required: "Needs the customer's authentication (3-D Secure) before it succeeds or fails.",
} as const;

export type TestPaymentMethod = keyof typeof TEST_PAYMENT_METHODS;

export function isTestPaymentMethod(value: string): value is TestPaymentMethod {
  return Object.hasOwn(TEST_PAYMENT_METHODS, value);
}

const reference = (prefix: string, key: string) => `${prefix}_test_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;

export class TestCardProcessor implements PaymentProvider {
  readonly name = "test_card_processor";
  readonly testMode = true;
  // What a real processor remembers: charges by idempotency key, and those awaiting authentication.
  private readonly charges = new Map<string, ChargeOutcome>();

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const known = this.charges.get(request.idempotencyKey);
    if (known) return known;
    const ref = reference("ch", request.idempotencyKey);
    let outcome: ChargeOutcome;
    switch (request.paymentMethod) {
      case "pm_card_visa":
      case "pm_card_mastercard":
        outcome = { status: "succeeded", reference: ref };
        break;
      case "pm_card_authentication_required":
        outcome = { status: "requires_action", reference: ref };
        break;
      case "pm_card_insufficient_funds":
        outcome = { status: "failed", reference: ref, failureCode: "insufficient_funds", failureMessage: "The card has insufficient funds." };
        break;
      case "pm_card_declined":
        outcome = { status: "failed", reference: ref, failureCode: "card_declined", failureMessage: "The card was declined." };
        break;
      default:
        outcome = {
          status: "failed",
          reference: null,
          failureCode: "invalid_payment_method",
          failureMessage: `Unknown test payment method "${request.paymentMethod}".`,
        };
    }
    this.charges.set(request.idempotencyKey, outcome);
    return outcome;
  }

  async completeAuthentication(ref: string, authenticated: boolean): Promise<ChargeOutcome> {
    return authenticated
      ? { status: "succeeded", reference: ref }
      : { status: "failed", reference: ref, failureCode: "authentication_failed", failureMessage: "The customer did not complete the card authentication." };
  }

  async refund({ chargeReference, idempotencyKey }: { chargeReference: string; amountCents: number; idempotencyKey: string }) {
    return { status: "succeeded" as const, reference: reference("re", `${chargeReference}:${idempotencyKey}`) };
  }
}
