// The stages of an ordered photo's way from upload to partner, as order-delivery-latency reads
// them from the service's own event stamps (event-stamps.ts): each stage ends when the service
// records its event, the last when the webhook reaches the receiver.
import type { StageDefinition } from "./event-stamps";

export type Stage = "intake" | "qa" | "verify" | "deliver" | "webhook";
export type StageEvent = "submission.received" | "submission.approved" | "order.photo.verified" | "photos.delivered";

/** Each stage ends when the service stamps its event (recordEvent: new Date() in the transaction); the last at the receiver. */
export const ORDER_DELIVERY_STAGES: readonly StageDefinition<Stage, StageEvent>[] = [
  {
    stage: "intake",
    until: "submission.received",
    label: "upload start → submission.received recorded (request, multipart to disk, EXIF, intake transaction)",
  },
  {
    stage: "qa",
    until: "submission.approved",
    label: "→ submission.approved recorded (QA worker woken by the upload; decode, derivatives, measurements, QA transaction)",
  },
  {
    stage: "verify",
    until: "order.photo.verified",
    label: "→ order.photo.verified recorded (the orders worker picking up the verify job; reads, verifyPhoto)",
  },
  { stage: "deliver", until: "photos.delivered", label: "→ photos.delivered recorded (deliver job: reads, weather call, record, mission/order bookkeeping)" },
  { stage: "webhook", until: null, label: "→ photos.delivered at the receiver (webhook worker: claim, sign, POST)" },
];
