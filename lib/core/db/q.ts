/**
 * `Q` objects: lookups combined with AND / OR / NOT, as in Django.
 *
 *     Snippet.objects.filter(Q.or({ title__icontains: 'x' }, { code__icontains: 'x' }))
 *     new Q({ owner__username: 'ann' }).and(new Q({ linenos: true }).not())
 */

/** A mapping of Django lookups (`owner__username__icontains`) to values. */
export type Lookups = Record<string, unknown>;

/** One child of a `Q`: a `[lookup, value]` pair or a nested `Q`. */
export type QChild = [string, unknown] | Q;

/** A tree of lookups joined by AND or OR, possibly negated. */
export class Q {
  readonly connector: 'AND' | 'OR';
  readonly negated: boolean;
  readonly children: readonly QChild[];

  constructor(lookups: Lookups = {}, options: { connector?: 'AND' | 'OR'; negated?: boolean; children?: QChild[] } = {}) {
    this.connector = options.connector ?? 'AND';
    this.negated = options.negated ?? false;
    this.children = [...(options.children ?? []), ...Object.entries(lookups)];
  }

  /** Wrap a `Q` or a lookups object as a `Q`. */
  static from(value: Q | Lookups): Q {
    return value instanceof Q ? value : new Q(value);
  }

  /** AND of all arguments. */
  static and(...items: Array<Q | Lookups>): Q {
    return new Q({}, { connector: 'AND', children: items.map((i) => Q.from(i)) });
  }

  /** OR of all arguments. */
  static or(...items: Array<Q | Lookups>): Q {
    return new Q({}, { connector: 'OR', children: items.map((i) => Q.from(i)) });
  }

  /** This Q AND `other`. */
  and(other: Q | Lookups): Q {
    return Q.and(this, other);
  }

  /** This Q OR `other`. */
  or(other: Q | Lookups): Q {
    return Q.or(this, other);
  }

  /** The negation of this Q (Django's `~Q(...)`). */
  not(): Q {
    return new Q({}, { connector: this.connector, negated: !this.negated, children: [...this.children] });
  }

  /** True when the Q holds no lookups at all (matches everything). */
  get isEmpty(): boolean {
    return this.children.every((c) => c instanceof Q && c.isEmpty);
  }
}
