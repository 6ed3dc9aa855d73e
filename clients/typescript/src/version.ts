/** The SDK's version: the API's (1.x for /api/v1 and /api/orders/v1), kept equal to package.json's. */
export const SDK_VERSION = "1.0.0";
