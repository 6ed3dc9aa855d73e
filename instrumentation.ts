// Starts the service when the Next server starts (migrations, keys, operator token, worker),
// so the first request does not pay for it and a broken environment fails at once.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getRuntime } = await import("@/lib/runtime/runtime");
  await getRuntime({ trustProxy: true });
}
