// The ready-to-copy request that trades fresh client credentials for an access token, shown in
// the one-time reveal (so it may carry the secret: it is never shown again either).

/** Quotes a value for a POSIX shell: single quotes, with any single quote closed, escaped and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command for the client-credentials grant, as a form body (what every OAuth library
 * sends), each value URL-encoded by curl itself.
 */
export function tokenCurl({
  tokenUrl,
  clientId,
  clientSecret,
  scopes,
}: {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
}): string {
  const lines = [
    `curl -X POST ${shellQuote(tokenUrl)}`,
    `  -d grant_type=client_credentials`,
    `  --data-urlencode ${shellQuote(`client_id=${clientId}`)}`,
    `  --data-urlencode ${shellQuote(`client_secret=${clientSecret}`)}`,
  ];
  if (scopes.length > 0) lines.push(`  --data-urlencode ${shellQuote(`scope=${scopes.join(" ")}`)}`);
  return lines.join(" \\\n");
}
