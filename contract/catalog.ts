export type ActiveStatus = 'active' | 'inactive';

export interface Product {
  id: number;
  code: string | null;
  name: string;
  category: string;
  status: ActiveStatus;
  summary: string;
  description: string;
  /** R1 (lowest) … R5, or '' when not set; a customer of type Cn may buy up to Rn (docs/api/compliance.md). */
  risk_level: string;
  /** Days in which the customer may cancel (冷静期); 0: none. */
  cooling_off_days: number;
  commission_rate: number | null;
  attributes: Record<string, string>;
  created_at: string;
  updated_at: string;
}

export interface ProductDetail extends Product {
  /** Approved media bound to the product. */
  medias: MediaSummary[];
}

export interface MediaSummary {
  id: number;
  filename: string;
  file_ext: string;
  preview_url: string;
}

export interface Course {
  id: number;
  title: string;
  name: string;
  category: string;
  status: ActiveStatus;
  summary: string;
  content: string;
  duration_minutes: number | null;
  /** Bound products in binding order: active ones only, every bound one with the admin-only `include_inactive=true`. */
  product_ids: number[];
  created_at: string;
  updated_at: string;
}

export interface CourseDetail extends Course {
  /** The products of product_ids, in the same order. */
  products: Product[];
  medias: MediaSummary[];
}

/** Why a row was refused, for a client to say in its own language (`error` says it in English). */
export type ImportErrorCode = 'not_an_object' | 'duplicate_code' | 'required' | 'invalid_type' | 'too_small' | 'too_big' | 'invalid_value' | 'invalid_format' | 'invalid';

export interface ImportRowError {
  row: number;
  field?: string;
  error: string;
  code: ImportErrorCode;
  /** invalid_type: what the field takes (`number`, `string`...). */
  expected?: string;
  /** duplicate_code: the earlier row with the same code. */
  other_row?: number;
}

export interface ImportReport {
  dry_run: boolean;
  total: number;
  valid: number;
  created: number;
  updated: number;
  imported: number;
  errors: ImportRowError[];
}

export interface CompanyIntro {
  content: string;
  medias: MediaSummary[];
}
