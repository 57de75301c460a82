export type Role = 'employee' | 'admin';
export type UserStatus = 'active' | 'disabled';
/** Interface languages; zh-CN is the default. */
export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export interface User {
  id: number;
  username: string;
  full_name: string;
  role: Role;
  status: UserStatus;
  department: string;
  department_id: number | null;
  position_id: number | null;
  /** The interface language the user chose; null until they choose one. */
  locale: Locale | null;
  /**
   * The user signed in with an initial password (bulk import) and must choose their own first: until then every
   * endpoint but GET/PUT /api/auth/me and PUT /api/auth/password answers 403 auth.password_change_required.
   */
  must_change_password: boolean;
  created_at: string;
  updated_at: string;
}

/** PUT /api/auth/me: what a user may change about themselves. */
export interface MyPreferences {
  locale?: Locale | null;
}

export interface LoginResult {
  token: string;
  expires_in: number;
  /** The spec's shape, exactly. */
  user: Pick<User, 'id' | 'username' | 'full_name' | 'role'>;
  /** True when the user must choose their own password before anything else (see User.must_change_password). */
  must_change_password: boolean;
}

/** PUT /api/auth/password: the caller's own password. */
export interface PasswordChange {
  current_password: string;
  new_password: string;
}

export const AuthErrorCode = {
  /** Any endpoint but the ones that change the password, until an imported user has chosen their own. */
  passwordChangeRequired: 'auth.password_change_required',
  /** PUT /api/auth/password with a current password that is not the user's. */
  wrongPassword: 'auth.wrong_password',
  /** The new password is the same as the current one. */
  samePassword: 'auth.same_password',
  /** A chosen password shorter than 8, equal to the username or on the common-password list. */
  weakPassword: 'auth.weak_password',
} as const;

export interface Department {
  id: number;
  name: string;
  description: string;
  user_count: number;
  created_at: string;
  updated_at: string;
}

export interface PositionKnowledge {
  id: number;
  position_id: number;
  title: string;
  kind: 'course' | 'product' | 'text';
  ref_id: number | null;
  is_mandatory: boolean;
  sort_order: number;
}

export interface Position {
  id: number;
  name: string;
  description: string;
  knowledge: PositionKnowledge[];
  created_at: string;
  updated_at: string;
}
