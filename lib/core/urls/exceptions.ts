/**
 * The URL layer's errors: `Resolver404` when no pattern matches a path, `NoReverseMatch` when
 * no pattern builds a URL for a name and its arguments.
 */
import { Http404 } from '../exceptions';

/** Raised by `resolve()` when no pattern matches: a 404. */
export class Resolver404 extends Http404 {
  override name = 'Resolver404';
  /** The patterns tried (their route strings), for DEBUG pages. */
  readonly tried: string[][];
  readonly path: string;

  constructor(path: string, tried: string[][] = []) {
    super(`Resolver404: ${path}`);
    this.path = path;
    this.tried = tried;
  }
}

/** Raised by `reverse()` when no pattern produces a URL for the name and arguments. */
export class NoReverseMatch extends Error {
  override name = 'NoReverseMatch';
}
