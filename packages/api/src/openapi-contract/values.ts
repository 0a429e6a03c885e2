// Values shared by the fixtures.

/** Longer than the 64 characters an id may have: refused by the schema before any query. */
export const TOO_LONG_ID = "x".repeat(65);
