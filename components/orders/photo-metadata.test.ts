import { describe, expect, it } from "vitest";
import { describeWeather } from "./photo-metadata";

describe("describeWeather", () => {
  it("words the recorded conditions", () => {
    expect(describeWeather({ weather: { condition: "partly_cloudy", temp_c: 12 } })).toBe("partly cloudy, 12 °C");
  });

  it("says 'Weather unavailable', not the service's error, when there is no reading", () => {
    expect(describeWeather({ weather: null, weather_unavailable_reason: "The weather service could not be reached (fetch failed)." })).toBe("Weather unavailable");
  });
});
