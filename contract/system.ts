/** Named system parameters (spec 4.9) and their read-side representation. */
export const ConfigKey = {
  llmBaseUrl: 'llm_base_url',
  llmApiKey: 'llm_api_key',
  llmModel: 'llm_model',
  jwtExpireMinutes: 'jwt_expire_minutes',
  companyIntroContent: 'company_intro_content',
} as const;

export type SystemConfig = Record<string, string | number | boolean | string[]>;
