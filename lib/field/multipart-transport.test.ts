import { describe, expect, it } from "vitest";
import { uploadForm, uploadUrl } from "./multipart-transport";
import { outboxEntry } from "./outbox-fixture";
import { isRetryableStatus, problemText } from "./transport";

const entry = outboxEntry();

describe("the multipart transport", () => {
  it("posts to the field route of the target", () => {
    expect(uploadUrl(entry)).toBe("/field/api/missions/mis_1/submissions");
    expect(uploadUrl({ ...entry, target: { kind: "task", id: "asg_1", title: "x" } })).toBe("/field/api/assignments/asg_1/photo");
  });

  it("sends the device evidence as the form fields DESIGN.md names, when the server takes them", () => {
    const form = uploadForm(entry, { evidenceFields: true });
    expect(form.get("device_position")).toBe("43.7733,11.2562,8");
    expect(form.get("heading_deg")).toBe("200");
    expect(form.get("captured_at")).toBe("2026-11-27T14:32:00.000Z");
    expect(form.get("angle")).toBe("front");
    expect(form.get("note")).toBe("north door");
    expect((form.get("photos") as File).name).toBe("IMG_1.jpg");
  });

  it("leaves out what the phone did not have, and the evidence fields for a server without them", () => {
    const bare = uploadForm({ ...entry, evidence: { position: null, heading_deg: null, captured_at: entry.evidence.captured_at } }, { evidenceFields: true });
    expect(bare.has("device_position")).toBe(false);
    expect(bare.has("heading_deg")).toBe(false);
    expect([...uploadForm(entry, { evidenceFields: false }).keys()].sort()).toEqual(["angle", "note", "photos"]);
  });

  it("a task's photo carries no mission fields (the task has its angle)", () => {
    const form = uploadForm({ ...entry, target: { kind: "task", id: "asg_1", title: "x" } }, { evidenceFields: false });
    expect([...form.keys()]).toEqual(["photos"]);
  });

  it("tells a retryable answer from a refusal", () => {
    expect([0, 401, 408, 429, 500, 503].every(isRetryableStatus)).toBe(true);
    expect([400, 403, 404, 409, 413, 415, 422].some(isRetryableStatus)).toBe(false);
    expect(problemText(409, JSON.stringify({ detail: "This task is no longer reserved for you." }))).toBe("This task is no longer reserved for you.");
    expect(problemText(502, "<html>")).toBe("Request failed (502).");
  });
});
