import { describe, expect, it } from "vitest";
import { durationWords, signalText } from "./signal-text";
import { testWords } from "./test-words";

describe("signalText", () => {
  const de = testWords("de", "de");

  it("words a signal in the reader's language from its code and figures", () => {
    expect(signalText({ code: "device_position.far", params: { distance_m: 9300, limit_m: 108 } }, "The phone reported…", de)).toBe(
      "Das Telefon meldete seine Position 9,3 km von dem Ort entfernt, an dem das Foto laut GPS aufgenommen wurde (mehr als 108 m): Der Ort des Fotos wurde möglicherweise geändert.",
    );
    expect(signalText({ code: "capture_time.ok", params: { hours: 0.001 } }, "Sent under a minute after it was taken.", de)).toBe(
      "weniger als eine Minute nach der Aufnahme gesendet.",
    );
    expect(signalText({ code: "seen_elsewhere.seen", params: { same: "yes", near: "no" } }, "…", de)).toBe(
      "Dasselbe Bild wurde bereits für einen Ihrer Aufträge oder eine Ihrer Missionen an den Dienst gesendet.",
    );
  });

  it("lists each edit trace in the reader's words", () => {
    const text = signalText(
      { code: "edit_traces.found", params: { traces: "editor,modified_before", editor: "GIMP", modified_h: 72 } },
      "Signs of editing: …",
      testWords("fr", "fr"),
    );
    // French writes a no-break space between the figure and its unit.
    expect(text.replace(/\s/g, " ")).toBe(
      "Signes de modification : le fichier a été écrit par \u2068GIMP\u2069 et il indique une dernière modification 3 jours avant la prise de vue.",
    );
  });

  it("keeps the service's own sentence for English readers and for a signal recorded before codes", () => {
    expect(signalText({ code: "capture_time.ok", params: { hours: 2 } }, "Sent 2 h after it was taken.", testWords("en", "en-GB"))).toBe(
      "Sent 2 h after it was taken.",
    );
    expect(signalText(null, "An old sentence.", de)).toBe("An old sentence.");
  });

  it("says a span of time the reader's way", () => {
    expect(durationWords(3, de)).toBe("3 Stunden");
    expect(durationWords(0.5, de)).toBe("30 Minuten");
  });
});
