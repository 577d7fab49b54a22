/**
 * The graph query language behind `mem.queryGraph(query)`: a parser to a small AST and an
 * evaluator over any `QuerySource`.
 *
 * A query is terms in parentheses combined with `AND`, `OR` and prefix `NOT` (keywords in any
 * case), with grouping parentheses; `NOT` binds tightest, then `AND`, then `OR`, and chains group
 * to the left. Two terms side by side with no operator are an error.
 *
 * ```text
 * (property key:: value)    notes whose property `key` has `value` (both case-insensitive)
 * (property key)            notes that have the property at all
 * (outgoing-link [[Page]])  notes that link to Page
 * (backlink [[Page]])       notes that Page links to
 * (tag #x)                  notes tagged #x or any tag nested under it (#x/y)
 * (path "folder/")          notes whose path starts with the prefix (case-sensitive)
 * (content "text")          notes whose lines contain the text (case-insensitive)
 * ```
 *
 * A value (after `::`, and the argument of `path` and `content`) runs to the `)` that closes the
 * term and is trimmed; parentheses inside it must balance, and a `)` inside `[[...]]` or a quoted
 * string does not count. A value that is one quoted string is that string unquoted: inside quotes
 * `\"` is a quote and `\\` a backslash (any other backslash is kept as written), and the text keeps
 * its spaces and may hold unmatched parentheses. A property key is a word without spaces or colons,
 * or a quoted string. Link arguments are `[[Page]]`; an `|alias` or `#heading` in them is ignored.
 *
 * The modules behind it are in `./query/` (see its README).
 *
 * @example
 * parseQuery('(property affiliation:: AI Research Institute) AND (outgoing-link [[Symbolic Reasoning]])');
 * // { kind: 'and', left: { kind: 'property', key: 'affiliation', value: 'AI Research Institute' },
 * //   right: { kind: 'outgoing-link', target: 'Symbolic Reasoning' } }
 */

export { evaluateQuery } from './query/evaluateQuery';
export { parseQuery } from './query/parseQuery';
export { QUERY_LIMITS, type QueryNode } from './query/queryNode';
export type { EvaluateOptions, QueryableNote, QueryMatch, QuerySource } from './query/querySource';
