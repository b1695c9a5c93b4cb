/** With MODEL_PROFILE set, milliseconds spent per command kind and in the safety checks (written by the suite). */
export const PROFILE: Record<string, number> | null = process.env.MODEL_PROFILE ? {} : null;
