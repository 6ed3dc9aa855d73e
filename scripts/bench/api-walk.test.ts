// api-walk fills every GET route's path from the demo's ids: by the parameter's name when it says
// (photo_id), else by the collection it follows (/orders/{id}); a route it cannot fill is named.
import { describe, expect, it } from "vitest";
import { fillPath } from "./api-walk";

const ids = {
  mission: "mission_1",
  order: "ord_1",
  recurringOrder: "ord_r",
  photo: "asg_1",
  webhook: "wh_1",
  delivery: "del_1",
  cdn: "/cdn/images/img_1/thumb?sig=x",
};

describe("api-walk's paths", () => {
  it("takes the id of the collection a parameter follows", () => {
    expect(fillPath("/api/v1/missions/{id}/submissions", ids)).toEqual({ path: "/api/v1/missions/mission_1/submissions" });
    expect(fillPath("/api/orders/v1/orders/{id}", ids)).toEqual({ path: "/api/orders/v1/orders/ord_1" });
  });

  it("takes a named parameter's own kind", () => {
    expect(fillPath("/api/orders/v1/orders/{id}/photos/{photo_id}/evidence", ids)).toEqual({ path: "/api/orders/v1/orders/ord_1/photos/asg_1/evidence" });
    expect(fillPath("/api/v1/webhooks/{id}/deliveries/{delivery_id}", ids)).toEqual({ path: "/api/v1/webhooks/wh_1/deliveries/del_1" });
  });

  it("gives a schedule a recurring order, and the field's lists a place", () => {
    expect(fillPath("/api/orders/v1/orders/{id}/schedule", ids)).toEqual({ path: "/api/orders/v1/orders/ord_r/schedule" });
    expect(fillPath("/api/v1/field/missions", ids)).toEqual({ path: "/api/v1/field/missions?lat=43.7696&lng=11.2558" });
  });

  it("walks the CDN by the signed path a partner was given", () => {
    expect(fillPath("/cdn/images/{image_id}/{variant}", ids)).toEqual({ path: "/cdn/images/img_1/thumb?sig=x" });
  });

  it("names what it could not find", () => {
    expect(fillPath("/api/orders/v1/drafts/{id}", ids)).toEqual({ why: "no draft in the demo's data" });
    expect(fillPath("/api/v1/field/uploads/{id}", ids)).toEqual({ why: "no uploads/{id} in the demo's data" });
  });
});
