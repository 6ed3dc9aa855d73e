import { describe, expect, it } from "vitest";
import { describeWeather } from "./photo-metadata";
import { testWords } from "./test-words";

const en = testWords("en", "en-GB");

describe("describeWeather", () => {
  it("words the recorded conditions", () => {
    expect(describeWeather({ weather: { condition: "partly_cloudy", temp_c: 12 } }, en)).toBe("partly cloudy, 12 °C");
    expect(describeWeather({ weather: { condition: "partly_cloudy", temp_c: 12.5 } }, testWords("de", "de"))).toBe("teilweise bewölkt, 12,5 °C");
  });

  it("says 'Weather unavailable', not the service's error, when there is no reading", () => {
    expect(describeWeather({ weather: null, weather_unavailable_reason: "The weather service could not be reached (fetch failed)." }, en)).toBe(
      "Weather unavailable",
    );
  });
});
