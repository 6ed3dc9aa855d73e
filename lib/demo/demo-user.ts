// The demo account, seeded in demo mode only and offered on the sign-in page there.
export const DEMO_USER = { email: "demo@photo-missions.dev", password: "demo-photo-missions", name: "Demo Partner" } as const;
