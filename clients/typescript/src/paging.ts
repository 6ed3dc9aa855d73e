import type { Page } from "./types.js";

/**
 * Every item of a paged list, page by page (`page` from 1, `per_page` up to 100), as long as the
 * caller keeps reading: `for await (const mission of client.missions.iterate()) …`.
 */
export async function* paginate<T>(fetchPage: (page: number, perPage: number) => Promise<Page<T>>, perPage = 100): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page++) {
    const { data, meta } = await fetchPage(page, perPage);
    yield* data;
    if (data.length === 0 || meta.page * meta.per_page >= meta.total) return;
  }
}
