/** What the model file says of itself (scripts/train-work-kinds.mjs). */
export const WORK_KINDS_ABOUT: string;
/** What the specialists' domains model file says of itself. */
export const WORK_DOMAINS_ABOUT: string;
