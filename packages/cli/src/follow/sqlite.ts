// better-sqlite3 (synchronous SQLite for Node 20; v13 crashes there) behind the few calls the
// trackio follower and its test fixture make. The package ships no types and @types/better-sqlite3
// is not a dependency: its module is loaded by name and given this interface.

export interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): unknown;
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  pragma(source: string): unknown;
  close(): void;
}

export interface SqliteOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  /** Milliseconds to wait for a lock held by a writer. */
  timeout?: number;
}

type SqliteConstructor = new (file: string, options?: SqliteOptions) => SqliteDatabase;

const MODULE = "better-sqlite3";
let loaded: SqliteConstructor | null = null;

/** Opens a database file (loads the native module on first use). */
export async function openSqlite(file: string, options: SqliteOptions = {}): Promise<SqliteDatabase> {
  loaded ??= ((await import(MODULE)) as { default: SqliteConstructor }).default;
  return new loaded(file, options);
}
