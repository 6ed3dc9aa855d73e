// Test fixture: an order assignment as the API returns it, open on its first attempt, with the
// fields a test cares about overridden. Ids are unique within a test run.
import type { OrderAssignment } from "./types";

let n = 0;

export function task(fields: Partial<OrderAssignment>): OrderAssignment {
  n++;
  return {
    id: `asg_${n}`,
    mission_id: "mis_1",
    location_id: "loc_a",
    cycle_index: 0,
    angle: "front",
    attempt: 0,
    status: "open",
    late: false,
    deadline_at: "2027-01-03T00:00:00Z",
    zoomer_id: null,
    photo_id: null,
    instructions: [],
    instruction_codes: [],
    verification: null,
    delivered_at: null,
    created_at: "2027-01-01T10:00:00Z",
    review: null,
    ...fields,
  };
}
