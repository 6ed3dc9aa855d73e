// One measured pass of webhook deliveries (webhook-delivery's full path, worker alone or fetch
// loop): how many, how fast, and whether it counts — every event arrived once at the receiver,
// its sampled signatures right, and, for the service's passes, one attempt logged each.
import { fmt } from "./file-report";
import { round3 } from "./interleave";
import { describeReceiverCheck, type Receiver, type ReceiverCheck } from "./webhook-receiver-client";
import { settleAndCheck, type BenchService } from "./webhook-service";

export interface Pass {
  deliveries: number;
  seconds: number;
  perSecond: number;
  /** Time to commit the events: inside `seconds` on the full path, before the clock for worker only. */
  enqueueSeconds?: number;
  /** Service passes only: rows in webhook_attempts for the pass's deliveries. */
  attemptsLogged?: number;
  receiver: ReceiverCheck;
  /** Empty when the pass counts: everything arrived once, signatures right, attempts logged. */
  problems: string[];
}

/** Waits until all `expected` events are delivered and settled, then checks receiver and log; the pass is timed from `started`. */
export async function settledPass(
  service: BenchService,
  receiver: Receiver,
  { endpointId, expected, started, enqueueSeconds }: { endpointId: string; expected: Set<string>; started: number; enqueueSeconds: number },
): Promise<Pass> {
  const events = expected.size;
  const { finished, logged, check: receiverCheck, problems } = await settleAndCheck(service, receiver, endpointId, expected);
  const seconds = (finished - started) / 1000;
  return {
    deliveries: events,
    seconds: round3(seconds),
    perSecond: round3(events / seconds),
    enqueueSeconds: round3(enqueueSeconds),
    attemptsLogged: logged,
    receiver: receiverCheck,
    problems,
  };
}

function passChecks(pass: Pass): string {
  const logged = pass.attemptsLogged === undefined ? "" : `, ${fmt(pass.attemptsLogged)} attempts logged`;
  return describeReceiverCheck(pass.receiver, pass.deliveries, pass.problems, { sampled: true, suffix: logged });
}

/** The checks of one variant over all rounds, for a report: the first round with problems, else the last round. */
export function roundsChecks<R>(rounds: R[], pick: (round: R) => Pass): string {
  const bad = rounds.findIndex((r) => pick(r).problems.length > 0);
  const shown = rounds[bad >= 0 ? bad : rounds.length - 1];
  if (!shown) return "";
  return bad >= 0 ? `round ${bad + 1}: ${passChecks(pick(shown))}` : `every round OK; last: ${passChecks(pick(shown))}`;
}
