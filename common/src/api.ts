import { z } from 'zod';

/** The error envelope every API error uses: {success: false, error, code?}. */
export const ApiError = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string().optional(),
});
export type ApiError = z.infer<typeof ApiError>;

/** Who may call a route: anyone, any signed-in approved user, or a minimum level. */
export type RouteAccess = 'public' | 'login' | 'user' | 'moderator' | 'admin';
