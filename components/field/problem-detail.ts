// The sentence to show for a failed field request: the API's problem+json `detail` when there is one.
export async function problemDetail(response: Response | XMLHttpRequest): Promise<string> {
  const text = response instanceof Response ? await response.text() : response.responseText;
  try {
    const body = JSON.parse(text) as { detail?: string };
    return body.detail ?? `Request failed (${response.status}).`;
  } catch {
    return `Request failed (${response.status}).`;
  }
}
