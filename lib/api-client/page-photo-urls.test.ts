import { describe, expect, it } from "vitest";
import { foreignCdnOrigin, pagePhotoUrlsInJson, withPagePhotoUrls } from "./page-photo-urls";

const own = { publicOrigin: "http://localhost:3000", cdnUrl: "http://localhost:3000/cdn" };
const foreign = { publicOrigin: "https://missions.example.com", cdnUrl: "https://photos.example.net/pm" };
const signed = "http://localhost:3000/cdn/images/img_1/thumbnail?exp=1&sig=abc";

describe("page photo URLs", () => {
  it("turns the API's absolute photo URLs into same-origin paths, wherever they sit in the document", () => {
    const body = { url: signed, data: [{ thumbnail_url: signed }], thumbnails: [signed, null] };
    const out = JSON.parse(pagePhotoUrlsInJson(JSON.stringify(body), own)) as typeof body;
    expect(out).toEqual({
      url: "/cdn/images/img_1/thumbnail?exp=1&sig=abc",
      data: [{ thumbnail_url: "/cdn/images/img_1/thumbnail?exp=1&sig=abc" }],
      thumbnails: ["/cdn/images/img_1/thumbnail?exp=1&sig=abc", null],
    });
  });

  it("leaves other URLs, and a photo URL quoted inside other text, as they are", () => {
    const body = { home: "http://localhost:3000/missions", snippet: `{"url":"${signed}"}`, note: `see ${signed}` };
    expect(JSON.parse(pagePhotoUrlsInJson(JSON.stringify(body), own))).toEqual(body);
  });

  it("keeps a CDN on another host absolute, and names its origin for the CSP", () => {
    const url = "https://photos.example.net/pm/images/img_1/original?exp=1&sig=abc";
    expect(pagePhotoUrlsInJson(JSON.stringify({ url }), foreign)).toBe(JSON.stringify({ url }));
    expect(foreignCdnOrigin(foreign)).toBe("https://photos.example.net");
    expect(foreignCdnOrigin(own)).toBeNull();
  });

  it("rewrites JSON answers only, and keeps their status and headers", async () => {
    const json = await withPagePhotoUrls(Response.json({ url: signed }, { status: 201, headers: { etag: '"1"' } }), own);
    expect(json.status).toBe(201);
    expect(json.headers.get("etag")).toBe('"1"');
    expect(await json.json()).toEqual({ url: "/cdn/images/img_1/thumbnail?exp=1&sig=abc" });
    const zip = new Response(signed, { headers: { "content-type": "application/zip" } });
    expect(await withPagePhotoUrls(zip, own)).toBe(zip);
  });
});
