/**
 * Provides a set of pluggable permission policies.
 *
 * A permission class answers two questions: may this request reach the view at all
 * (`hasPermission`), and may it act on this particular object (`hasObjectPermission`).
 * Classes compose with `and()`, `or()` and `not()` (DRF's `&`, `|` and `~`).
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - Permissions: `hasPermission`/`hasObjectPermission` may be async. Compose with `and(A, B)`,
 *   `or(A, B)`, `not(A)` or `A.and(B)`, `A.or(B)`, `A.not()` (each returns a permission class).
 *   Model permissions read `view.getQueryset()` or `view.queryset` and the model's
 *   `meta.appLabel` / `meta.modelName ?? name.toLowerCase()`; a view with
 *   `ignoreModelPermissions = true` (the router's API root) is let through.
 */
import { Http404 } from './core/exceptions';
import { MethodNotAllowed } from './exceptions';
import type { Request } from './request';
import type { APIView } from './views';

/** Methods that never change state (RFC 9110 section 9.2.1). */
export const SAFE_METHODS: readonly string[] = Object.freeze(['GET', 'HEAD', 'OPTIONS']);

/** A permission answer: permission checks may be sync or async. */
export type PermissionResult = boolean | Promise<boolean>;

/** A permission class, as listed in `permissionClasses` and `DEFAULT_PERMISSION_CLASSES`. */
export type PermissionClass = (new () => BasePermission) & PermissionComposition;

/** The composition helpers every permission class carries (`A.and(B)`, `A.or(B)`, `A.not()`). */
export interface PermissionComposition {
  and(other: PermissionClass): PermissionClass;
  or(other: PermissionClass): PermissionClass;
  not(): PermissionClass;
}

/**
 * A base class from which all permission classes should inherit.
 *
 * Override `hasPermission` for view-level rules and `hasObjectPermission` for rules about a
 * single object (called by `GenericAPIView.getObject()` through `checkObjectPermissions`).
 */
export class BasePermission {
  /** The detail of the `PermissionDenied` raised when this permission refuses. */
  message?: string;
  /** The code of the `PermissionDenied` raised when this permission refuses. */
  code?: string;

  /** Return `true` if permission is granted, `false` otherwise. */
  hasPermission(_request: Request, _view: APIView): PermissionResult {
    return true;
  }

  /** Return `true` if permission is granted on `obj`, `false` otherwise. */
  hasObjectPermission(_request: Request, _view: APIView, _obj: unknown): PermissionResult {
    return true;
  }

  /** A permission class granting only when both this class and `other` grant (DRF's `A & B`). */
  static and(this: PermissionClass, other: PermissionClass): PermissionClass {
    return and(this, other);
  }

  /** A permission class granting when this class or `other` grants (DRF's `A | B`). */
  static or(this: PermissionClass, other: PermissionClass): PermissionClass {
    return or(this, other);
  }

  /** A permission class granting exactly when this class refuses (DRF's `~A`). */
  static not(this: PermissionClass): PermissionClass {
    return not(this);
  }
}

function nameOf(cls: PermissionClass): string {
  return cls.name || 'Permission';
}

/** A permission class granting only when both `A` and `B` grant (view and object level). */
export function and(A: PermissionClass, B: PermissionClass): PermissionClass {
  const composed = class extends BasePermission {
    private readonly op1 = new A();
    private readonly op2 = new B();

    override async hasPermission(request: Request, view: APIView): Promise<boolean> {
      return (await this.op1.hasPermission(request, view)) && (await this.op2.hasPermission(request, view));
    }

    override async hasObjectPermission(request: Request, view: APIView, obj: unknown): Promise<boolean> {
      return (
        (await this.op1.hasObjectPermission(request, view, obj)) &&
        (await this.op2.hasObjectPermission(request, view, obj))
      );
    }
  };
  Object.defineProperty(composed, 'name', { value: `(${nameOf(A)} & ${nameOf(B)})` });
  return composed;
}

/**
 * A permission class granting when `A` or `B` grants. At object level an operand counts only
 * when it grants both the view and the object, as DRF 3.14 does: otherwise `IsAdminUser | IsOwner`
 * would let any owner past a view the admin check was meant to guard.
 */
export function or(A: PermissionClass, B: PermissionClass): PermissionClass {
  const composed = class extends BasePermission {
    private readonly op1 = new A();
    private readonly op2 = new B();

    override async hasPermission(request: Request, view: APIView): Promise<boolean> {
      return (await this.op1.hasPermission(request, view)) || (await this.op2.hasPermission(request, view));
    }

    override async hasObjectPermission(request: Request, view: APIView, obj: unknown): Promise<boolean> {
      return (
        ((await this.op1.hasPermission(request, view)) && (await this.op1.hasObjectPermission(request, view, obj))) ||
        ((await this.op2.hasPermission(request, view)) && (await this.op2.hasObjectPermission(request, view, obj)))
      );
    }
  };
  Object.defineProperty(composed, 'name', { value: `(${nameOf(A)} | ${nameOf(B)})` });
  return composed;
}

/** A permission class granting exactly when `A` refuses (view and object level). */
export function not(A: PermissionClass): PermissionClass {
  const composed = class extends BasePermission {
    private readonly op1 = new A();

    override async hasPermission(request: Request, view: APIView): Promise<boolean> {
      return !(await this.op1.hasPermission(request, view));
    }

    override async hasObjectPermission(request: Request, view: APIView, obj: unknown): Promise<boolean> {
      return !(await this.op1.hasObjectPermission(request, view, obj));
    }
  };
  Object.defineProperty(composed, 'name', { value: `~${nameOf(A)}` });
  return composed;
}

function isAuthenticated(request: Request): boolean {
  const user = request.user;
  return Boolean(user && user.isAuthenticated);
}

/** Allow any access. Useful in place of an empty list, to make the intention explicit. */
export class AllowAny extends BasePermission {
  override hasPermission(): boolean {
    return true;
  }
}

/** Allows access only to authenticated users. */
export class IsAuthenticated extends BasePermission {
  override hasPermission(request: Request): boolean {
    return isAuthenticated(request);
  }
}

/** Allows access only to admin (staff) users. */
export class IsAdminUser extends BasePermission {
  override hasPermission(request: Request): boolean {
    const user = request.user;
    return Boolean(user && user.is_staff);
  }
}

/** Authenticated users get full access; everyone else may only use safe methods. */
export class IsAuthenticatedOrReadOnly extends BasePermission {
  override hasPermission(request: Request): boolean {
    return SAFE_METHODS.includes(request.method) || isAuthenticated(request);
  }
}

/** What the model permission classes need from a queryset: its model's app label and name. */
interface ModelLike {
  name: string;
  meta?: { appLabel?: string; modelName?: string };
}

interface QuerysetLike {
  model: ModelLike;
}

/** The views model permissions apply to: generic views with `queryset` or `getQueryset()`. */
interface QuerysetView {
  queryset?: unknown;
  getQueryset?: () => unknown;
  ignoreModelPermissions?: boolean;
}

function isQuerysetLike(value: unknown): value is QuerysetLike {
  return typeof value === 'object' && value !== null && typeof (value as { model?: unknown }).model === 'function';
}

/** Maps a request method to the permission templates it needs (`%(app_label)s.add_%(model_name)s`). */
export type PermsMap = Readonly<Record<string, readonly string[]>>;

const MODEL_PERMS_MAP: PermsMap = Object.freeze({
  GET: [],
  OPTIONS: [],
  HEAD: [],
  POST: ['%(app_label)s.add_%(model_name)s'],
  PUT: ['%(app_label)s.change_%(model_name)s'],
  PATCH: ['%(app_label)s.change_%(model_name)s'],
  DELETE: ['%(app_label)s.delete_%(model_name)s'],
});

function expandPerms(templates: readonly string[], model: ModelLike): string[] {
  const appLabel = model.meta?.appLabel ?? '';
  const modelName = model.meta?.modelName ?? model.name.toLowerCase();
  return templates.map((perm) => perm.replace(/%\(app_label\)s/g, appLabel).replace(/%\(model_name\)s/g, modelName));
}

/**
 * The request is authenticated using the host framework's model permissions (`auth_permission`):
 * POST needs `add`, PUT and PATCH need `change`, DELETE needs `delete`. Override `permsMap`
 * to require permissions for reads, too.
 */
/** True for a view that has a queryset or a `getQueryset()` (generic views). */
function isQuerysetView(view: object): view is QuerysetView {
  return 'getQueryset' in view || 'queryset' in view;
}

export class DjangoModelPermissions extends BasePermission {
  /** Required permissions per method; a method missing here is answered with 405. */
  permsMap: PermsMap = MODEL_PERMS_MAP;
  /** Refuse unauthenticated users even for methods needing no permission. */
  authenticatedUsersOnly = true;

  /** The permission names `method` needs on `model`; override to compute them another way. */
  getRequiredPermissions(method: string, model: ModelLike): string[] {
    const templates = this.permsMap[method];
    if (templates === undefined) throw new MethodNotAllowed(method);
    return expandPerms(templates, model);
  }

  /** The view's queryset, through `getQueryset()` when the view has one. */
  protected async querysetOf(view: APIView): Promise<QuerysetLike> {
    const candidate: QuerysetView = isQuerysetView(view) ? view : {};
    const name = this.constructor.name;
    if (typeof candidate.getQueryset !== 'function' && (candidate.queryset === undefined || candidate.queryset === null)) {
      throw new Error(`Cannot apply ${name} on a view that does not set \`.queryset\` or have a \`.getQueryset()\` method.`);
    }
    const queryset = typeof candidate.getQueryset === 'function' ? await candidate.getQueryset() : candidate.queryset;
    if (queryset === null || queryset === undefined) {
      throw new Error(`${view.constructor.name}.getQueryset() returned null`);
    }
    if (!isQuerysetLike(queryset)) {
      throw new Error(`${name} needs a QuerySet with a model; ${view.constructor.name} gave something else.`);
    }
    return queryset;
  }

  override async hasPermission(request: Request, view: APIView): Promise<boolean> {
    const user = request.user;
    if (!user || (!user.isAuthenticated && this.authenticatedUsersOnly)) return false;
    // The API root of DefaultRouter has no queryset; it opts out of model permissions.
    if ('ignoreModelPermissions' in view && view.ignoreModelPermissions) return true;
    const queryset = await this.querysetOf(view);
    const perms = this.getRequiredPermissions(request.method, queryset.model);
    return user.hasPerms(perms);
  }
}

/** Like `DjangoModelPermissions`, but anonymous users may use the safe methods. */
export class DjangoModelPermissionsOrAnonReadOnly extends DjangoModelPermissions {
  override authenticatedUsersOnly = false;
}

/**
 * Object-level permissions through the user's `hasPerms(perms, obj)`, which an
 * object-permission backend answers. A user who may not even read the object gets 404 instead
 * of 403, so the object's existence is not revealed.
 */
export class DjangoObjectPermissions extends DjangoModelPermissions {
  /** The permission names `method` needs on an object of `model`. */
  getRequiredObjectPermissions(method: string, model: ModelLike): string[] {
    const templates = this.permsMap[method];
    if (templates === undefined) throw new MethodNotAllowed(method);
    return expandPerms(templates, model);
  }

  override async hasObjectPermission(request: Request, view: APIView, obj: unknown): Promise<boolean> {
    // Authentication was checked by hasPermission already.
    const queryset = await this.querysetOf(view);
    const user = request.user;
    if (!user) return false;
    const perms = this.getRequiredObjectPermissions(request.method, queryset.model);
    if (await user.hasPerms(perms, obj)) return true;
    // Without permission: 403 if the user may read the object, else 404.
    if (SAFE_METHODS.includes(request.method)) throw new Http404();
    const readPerms = this.getRequiredObjectPermissions('GET', queryset.model);
    if (!(await user.hasPerms(readPerms, obj))) throw new Http404();
    return false;
  }
}
