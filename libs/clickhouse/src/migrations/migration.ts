export interface MigrationContext {
  /** Qualifies a table name with the configured database (a function, so migrations may destructure it). */
  table: (name: string) => string;
  retentionDays: number;
}

/**
 * One schema step. Statements must be idempotent (IF NOT EXISTS), because two processes of a distributed
 * deployment may start at the same moment and both apply a migration not yet recorded.
 */
export interface Migration {
  id: string;
  statements(ctx: MigrationContext): string[];
}
