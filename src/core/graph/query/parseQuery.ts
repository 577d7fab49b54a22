import { InvalidArgumentError } from '../../errors';
import { QUERY_LIMITS, type QueryNode } from './queryNode';
import { TermParser } from './parseTerms';

/** What the query error for a missing term suggests. */
const A_TERM = 'a term like (tag #project)';

/**
 * Parses a query into its AST.
 *
 * @param query the query text, at most 2,000 characters, 64 terms and 32 levels of nesting.
 * @returns the query's AST.
 * @throws InvalidArgumentError (`InvalidArgument`) for argument `query` when the text is not a
 *   query. The message reads `Query error at column N: expected X, found Y`; `data` holds
 *   `column` (1-based, counted in characters), `expected` and `received` (what was found).
 */
export function parseQuery(query: string): QueryNode {
  if (typeof query !== 'string') throw new InvalidArgumentError('query', 'a string', describeNonString(query));
  return new Parser(query).parse();
}

/** The grammar: `OR` over `AND` over `NOT` over terms and groups, within the query's limits. */
class Parser extends TermParser {
  private terms = 0;

  parse(): QueryNode {
    if (this.text.length > QUERY_LIMITS.maxLength) {
      this.failAt(QUERY_LIMITS.maxLength, `a query of at most ${formatCount(QUERY_LIMITS.maxLength)} characters`, `${formatCount(this.text.length)} characters`);
    }
    this.skipSpace();
    const node = this.parseOr(0, null);
    this.skipSpace();
    if (!this.atEnd()) this.fail(this.peekKeyword('NOT') ? 'AND, OR or the end of the query (write "AND NOT" to exclude)' : 'AND, OR or the end of the query');
    return node;
  }

  /** `and ( OR and )*`; `after` names the operator before it, for messages. */
  private parseOr(depth: number, after: string | null): QueryNode {
    let left = this.parseAnd(depth, after);
    while (this.acceptKeyword('OR')) left = { kind: 'or', left, right: this.parseAnd(depth, 'OR') };
    return left;
  }

  /** `unary ( AND unary )*`. */
  private parseAnd(depth: number, after: string | null): QueryNode {
    let left = this.parseUnary(depth, after);
    while (this.acceptKeyword('AND')) left = { kind: 'and', left, right: this.parseUnary(depth, 'AND') };
    return left;
  }

  /** `NOT unary | primary`. */
  private parseUnary(depth: number, after: string | null): QueryNode {
    this.skipSpace();
    if (this.peekKeyword('NOT')) {
      this.checkDepth(depth + 1, this.pos);
      this.pos += 3;
      return { kind: 'not', operand: this.parseUnary(depth + 1, 'NOT') };
    }
    return this.parsePrimary(depth, after);
  }

  /** `( term )` or `( query )`. */
  private parsePrimary(depth: number, after: string | null): QueryNode {
    this.skipSpace();
    if (this.text[this.pos] !== '(') this.fail(after === null ? A_TERM : `${A_TERM} after ${after}`);
    const open = this.pos;
    this.pos++;
    this.skipSpace();
    const kind = this.peekTermKind();
    if (kind !== null) {
      this.terms++;
      if (this.terms > QUERY_LIMITS.maxTerms) this.failAt(open, `at most ${QUERY_LIMITS.maxTerms} terms`, `term ${this.terms}`);
      this.pos += kind.length;
      return this.parseTerm(kind, open);
    }
    if (this.text[this.pos] === '(' || this.peekKeyword('NOT')) return this.parseGroup(depth, open);
    return this.fail('a term name (property, outgoing-link, backlink, tag, path or content) or "("');
  }

  /** After the `(` at `open`: a query, then the `)` that closes the group. */
  private parseGroup(depth: number, open: number): QueryNode {
    this.checkDepth(depth + 1, open);
    const inner = this.parseOr(depth + 1, null);
    this.skipSpace();
    if (this.text[this.pos] !== ')') {
      const expected = `AND, OR or ")" to close the group that opens at column ${this.columnOf(open)}`;
      this.fail(this.peekKeyword('NOT') ? `${expected} (write "AND NOT" to exclude)` : expected);
    }
    this.pos++;
    return inner;
  }

  private checkDepth(depth: number, at: number): void {
    if (depth > QUERY_LIMITS.maxDepth) this.failAt(at, `at most ${QUERY_LIMITS.maxDepth} levels of nested parentheses and NOTs`, `level ${depth}`);
  }
}

function describeNonString(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}
