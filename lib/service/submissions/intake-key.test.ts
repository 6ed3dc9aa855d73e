import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { intakeKey } from "./take-in-photos";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const mission = { kind: "mission", missionId: "mission_06h0" } as const;

describe("intakeKey", () => {
  it("for one photo is the key tus uploads were stored under before both doors shared it", () => {
    expect(intakeKey({ zoomerId: "usr_1", target: mission, photoSha256s: [sha("a")] })).toBe(sha(`usr_1\nmission_06h0\n${sha("a")}`));
  });

  it("is the same for the same set of photos in any order, and differs by zoomer, target and set", () => {
    const key = intakeKey({ zoomerId: "usr_1", target: mission, photoSha256s: [sha("a"), sha("b")] });
    expect(intakeKey({ zoomerId: "usr_1", target: mission, photoSha256s: [sha("b"), sha("a")] })).toBe(key);
    expect(intakeKey({ zoomerId: "usr_2", target: mission, photoSha256s: [sha("a"), sha("b")] })).not.toBe(key);
    expect(intakeKey({ zoomerId: "usr_1", target: { kind: "assignment", assignmentId: "asg_1" }, photoSha256s: [sha("a"), sha("b")] })).not.toBe(key);
    expect(intakeKey({ zoomerId: "usr_1", target: mission, photoSha256s: [sha("a")] })).not.toBe(key);
  });
});
