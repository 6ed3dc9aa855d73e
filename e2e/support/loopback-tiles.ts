// Loopback servers standing in for the internet in the basemap spec: one that accepts connections
// and never answers (a street style host that is blocked or hangs), and a raster tile server
// with made-up "aerial" tiles (fields, a road, the tile's z/x/y), counting what it served.
import { createServer as createHttpServer } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import sharp from "sharp";

export interface LoopbackServer {
  port: number;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function tileSvg(z: number, x: number, y: number): string {
  const hue = (x * 37 + y * 17) % 40;
  const fields = [0, 1, 2, 3]
    .map(
      (i) => `<rect x="${(i % 2) * 128 + 6}" y="${Math.floor(i / 2) * 128 + 6}" width="116" height="116" fill="hsl(${80 + hue + i * 9} 28% ${30 + i * 4}%)"/>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <rect width="256" height="256" fill="#6b6f5a"/>${fields}
    <path d="M0 128 H256 M128 0 V256" stroke="#d6d3c4" stroke-width="8"/>
    <text x="12" y="30" font-family="sans-serif" font-size="16" fill="#fff">${z}/${x}/${y}</text>
  </svg>`;
}

export async function startRasterTileServer(): Promise<LoopbackServer & { served: () => number; zooms: () => number[] }> {
  let served = 0;
  const zooms = new Set<number>();
  const server = createHttpServer((req, res) => {
    const match = /^\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? "");
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const [z, x, y] = match.slice(1).map(Number) as [number, number, number];
    void sharp(Buffer.from(tileSvg(z, x, y)))
      .png()
      .toBuffer()
      .then((png) => {
        served++;
        zooms.add(z);
        res.writeHead(200, { "content-type": "image/png", "access-control-allow-origin": "*" }).end(png);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    served: () => served,
    zooms: () => [...zooms].sort((a, b) => a - b),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
