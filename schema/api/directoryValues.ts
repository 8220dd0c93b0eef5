/** The directory's limits, free of zod (the contacts rules read them in Lambdas that load no schema at start). */

/** How many directory entries a user may add to their contacts in total (spec §6, §9). */
export const directoryAdditionsLimits = { free: 5, paid: 1000 } as const;
