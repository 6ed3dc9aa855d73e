import { describe, expect, it } from "vitest";
import { describeDetections, detectionName, photoEvidence } from "./check-evidence";
import { testWords } from "./test-words";

describe("photoEvidence", () => {
  it("reads the detections, the people count and the compared positions of a photo's checks", () => {
    const evidence = photoEvidence({
      obstruction: {
        status: "failed",
        extra: {
          detections: [
            { label: "van", score: 0.91, box: [0.1, 0.4, 0.5, 0.5] },
            { label: "person", score: 0.8, box: [0.7, 0.5, 0.1, 0.3] },
            { label: "bad", score: 1, box: [0.1, 0.2, 2, 0.1] },
          ],
          people_count: 1,
        },
      },
      minimum_crowd: {
        status: "passed",
        extra: { detections: [{ label: "person", score: 0.8, box: [0.7, 0.5, 0.1, 0.3] }], people_count: 3, level: "sparse" },
      },
      authenticity: { status: "passed", extra: { exif_position: { lat: 1, lng: 2 }, device_position: { lat: 1.001, lng: 2, accuracy_m: 8 } } },
    });
    expect(evidence.detections.map((d) => d.label)).toEqual(["van", "person"]);
    expect(evidence).toMatchObject({
      peopleCount: 3,
      crowdLevel: "sparse",
      exifPosition: { lat: 1, lng: 2 },
      devicePosition: { lat: 1.001, lng: 2, accuracy_m: 8 },
    });
    expect(describeDetections(evidence.detections)).toBe("1 van, 1 person");
  });

  it("gives nothing for checks without evidence", () => {
    expect(photoEvidence({ obstruction: { status: "not_evaluated" } })).toEqual({
      detections: [],
      peopleCount: null,
      crowdLevel: null,
      exifPosition: null,
      devicePosition: null,
    });
    expect(photoEvidence(null).detections).toEqual([]);
    expect(
      describeDetections([
        { label: "person", score: 1, box: [0, 0, 1, 1] },
        { label: "person", score: 1, box: [0, 0, 0.5, 1] },
      ]),
    ).toBe("2 people");
  });

  it("counts the objects in the reader's words, the model's English name only where the catalogue has none", () => {
    const seen = [
      { label: "person", score: 1, box: [0, 0, 1, 1] as [number, number, number, number] },
      { label: "person", score: 1, box: [0, 0, 0.5, 1] as [number, number, number, number] },
      { label: "bicycle", score: 1, box: [0, 0, 0.2, 0.2] as [number, number, number, number] },
      { label: "kite", score: 1, box: [0, 0, 0.1, 0.1] as [number, number, number, number] },
    ];
    expect(describeDetections(seen, testWords("en", "en-GB"))).toBe("2 people, 1 bicycle, 1 kite");
    expect(describeDetections(seen, testWords("de", "de"))).toBe("2 Personen, 1 Fahrrad und 1 kite");
    expect(detectionName("bicycle", testWords("fr", "fr"))).toBe("vélo");
    expect(detectionName("kite", testWords("fr", "fr"))).toBe("kite");
  });

  it("draws only what the checks judge: a class that decided nothing stays in the API record", () => {
    const evidence = photoEvidence({
      obstruction: {
        status: "passed",
        extra: {
          detections: [
            { label: "book", score: 0.6, box: [0.1, 0.1, 0.1, 0.1] },
            { label: "car", score: 0.9, box: [0.2, 0.5, 0.3, 0.3] },
          ],
        },
      },
    });
    expect(evidence.detections.map((d) => d.label)).toEqual(["car"]);
  });
});
