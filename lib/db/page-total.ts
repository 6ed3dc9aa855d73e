// The `meta.total` of a list page without a count query when the page itself tells it: a page that
// is not full (or an empty first page) is the end of the list, so the total is the rows before it
// plus its own. Only a full page (or one past the end) counts in the database. The generic cost of
// every list route on the embedded database, where each statement is a round trip through
// PostgreSQL in WebAssembly (issue 36: an empty order list ran a count beside its page).

/**
 * The total of a list whose page `page` (from 1) of `perPage` rows held `rowsOnPage` rows; `count`
 * asks the database when the page cannot tell (the same condition as the page's query).
 */
export async function pageTotal(rowsOnPage: number, { page, perPage }: { page: number; perPage: number }, count: () => Promise<number>): Promise<number> {
  if (rowsOnPage < perPage && (rowsOnPage > 0 || page === 1)) return (page - 1) * perPage + rowsOnPage;
  return count();
}
