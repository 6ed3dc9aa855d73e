// Export from the mission page: "Export ZIP" downloads the mission's archive through the
// dashboard proxy; the archive holds every original byte for byte and a metadata.json listing
// every submission and image with its SHA-256.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { makePhoto } from "@/lib/demo/make-photo";
import { MissionPage } from "./pages/mission-page";
import { expect, test } from "./support/fixtures";
import { squareAround, unique } from "./support/operator";
import { readZip } from "./support/zip";

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

interface ExportMetadata {
  format: string;
  mission: { id: string; title: string };
  submissions: { id: string; images: { id: string; file: string; sha256: string; byte_size: number; original_name: string | null }[] }[];
}

test("Export ZIP downloads originals and a metadata.json listing the submitted images", async ({ page, operator, partner, signIn }) => {
  test.setTimeout(90_000);
  const center = { lat: 45.4642, lng: 9.19 };
  const mission = await partner.api.createMission({ title: unique("Export mission"), bounds: squareAround(center.lat, center.lng), required_images: 10 });
  const zoomer = await operator.zoomer();
  const photo = async (seed: number) => ({
    name: `IMG_70${seed}.jpg`,
    buffer: await makePhoto({ lat: center.lat + seed * 0.0002, lng: center.lng, accuracyM: 5, capturedAt: new Date(), seed: 7000 + seed }),
  });
  const photos = [await photo(1), await photo(2), await photo(3)] as const;
  const first = await zoomer.submit(mission.id, [photos[0], photos[1]], { angle: "front" });
  const second = await zoomer.submit(mission.id, [photos[2]]);

  await signIn.signInAs(partner.admin);
  const missionPage = new MissionPage(page);
  await missionPage.goto(mission.id);
  await expect(missionPage.submissions).toHaveCount(2);

  const downloading = page.waitForEvent("download");
  await missionPage.exportZip.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${mission.id}.zip`);
  expect(await download.failure()).toBeNull();
  const zip = await readFile(await download.path());
  const files = readZip(zip);

  const metadata = JSON.parse(files.get("metadata.json")?.toString("utf8") ?? "null") as ExportMetadata;
  expect(metadata.format).toBe("photo-missions-export/1");
  expect(metadata.mission).toMatchObject({ id: mission.id, title: mission.title });
  expect(metadata.submissions.map((s) => s.id).sort()).toEqual([first.id, second.id].sort());

  // Every uploaded photo is listed with its SHA-256, and its file in the archive is the original.
  const listed = metadata.submissions.flatMap((s) => s.images);
  expect(listed.map((i) => i.sha256).sort()).toEqual(photos.map((p) => sha256(p.buffer)).sort());
  for (const image of listed) {
    const bytes = files.get(image.file);
    if (!bytes) throw new Error(`${image.file} is listed in metadata.json but not in the archive`);
    expect(sha256(bytes)).toBe(image.sha256);
    expect(bytes.length).toBe(image.byte_size);
  }
  // The API agrees on the ids.
  const apiImages = (await Promise.all([first.id, second.id].map((id) => partner.api.submission(id)))).flatMap((s) => s.images);
  expect(listed.map((i) => i.id).sort()).toEqual(apiImages.map((i) => i.id).sort());
  // The button is back, ready for another export.
  await expect(missionPage.exportZip).toBeEnabled();
});
