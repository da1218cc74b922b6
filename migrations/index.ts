import { InitialSchema1763800000000 } from './1763800000000-InitialSchema';

/** Every migration, in order. Hand-written SQL within PostgreSQL 15 features; both databases run them. */
export const ALL_MIGRATIONS = [InitialSchema1763800000000];
