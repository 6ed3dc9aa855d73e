import { describe, expect, it } from "vitest";
import { describePaymentMethod } from "./payment-method";

describe("describePaymentMethod", () => {
  it("names a test card by brand and last four digits, never by its method id", () => {
    expect(describePaymentMethod("pm_card_visa")).toBe("Visa test card ···· 4242");
    expect(describePaymentMethod("pm_card_mastercard")).toBe("Mastercard test card ···· 4444");
  });

  it("says 'Card on file' for a method it does not know", () => {
    expect(describePaymentMethod("card")).toBe("Card on file");
    expect(describePaymentMethod(null)).toBe("Card on file");
  });
});
