/** A parsed query. Binary operators nest to the left: `a AND b AND c` is `(a AND b) AND c`. */
export type QueryNode =
  | { kind: 'and' | 'or'; left: QueryNode; right: QueryNode }
  | { kind: 'not'; operand: QueryNode }
  | { kind: 'property'; key: string; value: string | null }
  | { kind: 'outgoing-link'; target: string }
  | { kind: 'backlink'; target: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'path'; prefix: string }
  | { kind: 'content'; text: string };

/** A query that is one term: every kind but `AND`, `OR` and `NOT`. */
export type TermNode = Exclude<QueryNode, { kind: 'and' | 'or' | 'not' }>;

/**
 * What `parseQuery` accepts: the query's length in UTF-16 code units, the number of terms, and how
 * deeply grouping parentheses and `NOT`s may nest inside each other.
 */
export const QUERY_LIMITS = { maxLength: 2_000, maxTerms: 64, maxDepth: 32 } as const;

/** The term names, in the order error messages list them. */
export const TERM_KINDS = ['property', 'outgoing-link', 'backlink', 'tag', 'path', 'content'] as const;
export type TermKind = (typeof TERM_KINDS)[number];
