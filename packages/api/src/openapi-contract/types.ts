// What a contract fixture is (openapi-contract.int.test.ts): for one documented operation, how to
// build a valid request and an invalid one against the seeded world. Each file of fixtures/
// exports `fixtures: FixtureTable` keyed by operationId; the test loads every file of the folder,
// so a router's fixtures live in fixtures/<tag>.ts and a new file needs no registration.
import type { TokenScope } from "@paravt/db";
import type { World } from "./world";

/** One request of an operation. `projectId` in the path defaults to the world's project. */
export interface RestRequest {
  /** Path parameters ({name} in the documented path) other than a defaulted projectId. */
  path?: Record<string, string | number>;
  /** Query parameters; a list repeats the parameter (?names=a&names=b). */
  query?: Record<string, string | number | boolean | readonly (string | number)[]>;
  /** A JSON body (sent with Content-Type: application/json). */
  body?: unknown;
  /** A byte body instead of JSON (the upload route), with its extra headers. */
  raw?: { body: Uint8Array; headers?: Record<string, string> };
}

export interface OperationFixture {
  /**
   * The scope the operation declares (its `x-token-scope`; the test fails when they differ). The
   * success case uses a token with exactly this scope, and a token with every other scope is
   * refused with 403. "ANY" (whoami): a token of each single scope succeeds.
   */
  scope: TokenScope | "ANY";
  /** A request that succeeds (it may create, in the world's project, the rows it consumes). */
  valid: (w: World) => RestRequest | Promise<RestRequest>;
  /**
   * A request whose parameters or body the operation must refuse (422). Required when the
   * operation takes parameters or a body.
   */
  invalid?: (w: World) => RestRequest | Promise<RestRequest>;
  /** When the invalid answer of a byte-stream route is not 422 (it must be a documented status). */
  invalidStatus?: number;
  /** Extra assertions on a successful response body (already checked against the document). */
  check?: (body: unknown, w: World) => void | Promise<void>;
}

export type FixtureTable = Record<string, OperationFixture>;
