// A payment method as the order pages name it. The API records the processor's method id
// (`pm_card_visa`); a reader wants the card it stands for. The test-mode processor's methods are
// the documented test cards (lib/service/payments/test-card-processor.ts), shown by brand and the
// last four digits of the test number a card processor publishes for each; the words from the
// `orders` catalogue (orders.payment.*).
import type { Translate } from "./translate";

const TEST_CARDS: Record<string, { brand: string; last4: string }> = {
  pm_card_visa: { brand: "Visa", last4: "4242" },
  pm_card_mastercard: { brand: "Mastercard", last4: "4444" },
  pm_card_declined: { brand: "Visa", last4: "0002" },
  pm_card_insufficient_funds: { brand: "Visa", last4: "9995" },
  pm_card_authentication_required: { brand: "Visa", last4: "3184" },
};

/** "Visa test card ···· 4242" for a test method; "Card on file" for any other (its id means nothing to a reader). */
export function describePaymentMethod(paymentMethod: string | null | undefined, t: Translate): string {
  const card = paymentMethod ? TEST_CARDS[paymentMethod] : undefined;
  return card ? t("payment.testCard", { brand: card.brand, last4: card.last4 }) : t("payment.cardOnFile");
}
