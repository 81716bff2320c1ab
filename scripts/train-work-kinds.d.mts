/** What the model file says of itself (scripts/train-work-kinds.mjs). */
export const WORK_KINDS_ABOUT: string;
