// Ids of the order concept as forms and actions check them: the minted ones by their prefix
// (lib/ids), and a location's id, which the partner may choose.
import { z } from "zod";
import { ID_PREFIXES, idSchema } from "@/lib/ids/prefixes";

export const OrderIdSchema = idSchema(ID_PREFIXES.order, "order id");
export const DraftIdSchema = idSchema(ID_PREFIXES.draft, "draft id");
export const PhotoIdSchema = idSchema(ID_PREFIXES.image, "photo id");

/** `loc_` and 1–64 letters, digits, `_` or `-`: chosen by the partner, or minted by the service. */
export const LOCATION_ID_PATTERN = /^loc_[A-Za-z0-9_-]{1,64}$/;
export const LOCATION_ID_RULE = "Use loc_ followed by 1–64 letters, digits, _ or -.";
export const LocationIdSchema = z.string().max(68).regex(LOCATION_ID_PATTERN, LOCATION_ID_RULE);
