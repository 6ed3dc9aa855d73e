import { describe, expect, it } from "vitest";
import { describePaymentMethod } from "./payment-method";
import { testWords } from "./test-words";

const { t } = testWords("en", "en-GB");

describe("describePaymentMethod", () => {
  it("names a test card by brand and last four digits, never by its method id", () => {
    expect(describePaymentMethod("pm_card_visa", t)).toBe("Visa test card ···· 4242");
    expect(describePaymentMethod("pm_card_mastercard", t)).toBe("Mastercard test card ···· 4444");
    expect(describePaymentMethod("pm_card_visa", testWords("fr", "fr").t)).toBe("Carte de test Visa ···· 4242");
  });

  it("says 'Card on file' for a method it does not know", () => {
    expect(describePaymentMethod("card", t)).toBe("Card on file");
    expect(describePaymentMethod(null, t)).toBe("Card on file");
  });
});
