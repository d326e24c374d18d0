// Type-checked with `tsc --strict` beside `schema.d.ts`, the types openapi-typescript 7.13.0
// generates from openapi/openapi.json (tests/api/generated_client.rs). It uses the types the
// way a TypeScript client would: requests are built from them, and events read from the log
// are told apart by `type` alone, with every kind of event handled.

import type { components, paths } from "./schema";

type Schemas = components["schemas"];

/** The body of `POST /v1/games/{id}/events`, as the document names it. */
type AppendBody =
    paths["/v1/games/{id}/events"]["post"]["requestBody"]["content"]["application/json"];

export const create: Schemas["CreateGameRequest"] = {
    white: { name: "BarrStephens" },
    black: { name: "maxkon1" },
    event: "Rated Blitz game",
    round: "1",
    time_control: { kind: "blitz", base_ms: 180_000, increment_ms: 0 },
};

export const append: AppendBody = {
    expected_seq: 1,
    events: [
        { type: "move", by: "white", san: "d4", clock: { white_ms: 180_000 } },
        { type: "claim", by: "black", kind: "repetition", event_id: "6f1c1a52-5bb0-4f57-9a44-4d7b4c8e2a10" },
        { type: "clock_resume" },
    ],
};

// @ts-expect-error a move without its SAN is not an event
export const incomplete: Schemas["NewEventRequest"] = { type: "move", by: "white" };

// @ts-expect-error the service's decisions cannot be sent
export const forged: Schemas["NewEventRequest"] = { type: "game_ended", result: "1-0" };

/** One line per event of the log: narrowing on `type` reaches each event's own fields. */
export function describe(envelope: Schemas["EventEnvelope"]): string {
    const event = envelope.event;
    switch (event.type) {
        case "move":
            return `${envelope.seq}: ${event.by} ${event.san}`;
        case "illegal_move":
            return `${envelope.seq}: illegal move by ${event.by}: ${event.description}`;
        case "clock_press":
            return `${envelope.seq}: ${event.by} pressed (${event.white_ms ?? "?"} / ${event.black_ms ?? "?"})`;
        case "clock_pause":
            return `${envelope.seq}: clock paused`;
        case "clock_resume":
            return `${envelope.seq}: clock resumed`;
        case "clock_adjust":
            return `${envelope.seq}: ${event.side} ${event.delta_ms} ms (${event.reason})`;
        case "touch":
            return `${envelope.seq}: ${event.by} touched ${event.square}`;
        case "draw_offer":
        case "draw_accept":
        case "draw_decline":
            return `${envelope.seq}: ${event.type} by ${event.by}`;
        case "claim":
            return `${envelope.seq}: ${event.by} claims ${event.kind}`;
        case "flag":
            return `${envelope.seq}: ${event.side}'s flag fell`;
        case "both_flags":
            return `${envelope.seq}: both flags fell, order unknown`;
        case "resign":
            return `${envelope.seq}: ${event.by} resigned`;
        case "arbiter_decision":
            return `${envelope.seq}: arbiter: ${event.decision} (${event.reason})`;
        case "appeal_lodged":
            return `${envelope.seq}: appeal against ${event.against_seq}`;
        case "appeal_decided":
            return `${envelope.seq}: appeal ${event.upheld ? "upheld" : "dismissed"}`;
        case "correction":
            return `${envelope.seq}: retracts ${event.retracts_seq}`;
        case "fair_play":
            // Sealed: only the hash, and the loser and the article when it ends the game.
            return `${envelope.seq}: fair-play event ${event.sealed.slice(0, 12)}${event.forfeit ? ` (${event.forfeit.loser} loses, ${event.forfeit.article})` : ""}`;
        case "game_created":
            return `${envelope.seq}: ${event.white.name} - ${event.black.name}, ${event.event}`;
        case "claim_ruled":
            return `${envelope.seq}: claim ${event.claim_seq} ${event.outcome} (${event.article})`;
        case "penalty_applied":
            return `${envelope.seq}: ${event.side} +${event.add_ms} ms (${event.article})`;
        case "game_ended":
            return `${envelope.seq}: ${event.result} by ${event.termination}`;
        case "game_resumed":
            return `${envelope.seq}: play resumes (${event.article}), ${event.white_ms} / ${event.black_ms} ms`;
        case "appeal_dismissed":
            return `${envelope.seq}: appeal against ${event.against_seq} dismissed (${event.article})`;
        case "appeal_upheld":
            return `${envelope.seq}: appeal against ${event.against_seq} upheld (${event.article})`;
        default: {
            const unknown: never = event;
            return unknown;
        }
    }
}
