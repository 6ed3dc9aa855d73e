// GET /field/manifest.webmanifest – makes the field page installable on a phone's home screen.
export const dynamic = "force-static";

const MANIFEST = {
  name: "Photo Missions · Field",
  short_name: "PM Field",
  description: "Order tasks and open missions near you; photos wait on the phone until there is signal.",
  id: "/field",
  start_url: "/field",
  scope: "/field",
  display: "standalone",
  orientation: "portrait",
  background_color: "#ffffff",
  theme_color: "#047857",
  icons: [{ src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
};

export function GET(): Response {
  return new Response(JSON.stringify(MANIFEST), { headers: { "content-type": "application/manifest+json" } });
}
