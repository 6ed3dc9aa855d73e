import type { ReactNode } from "react";
import { DraftStoreProvider } from "@/components/orders/wizard/draft-store";

// Holds the draft being edited while the user moves between the wizard's steps (each its own
// route), so every step sees the same copy and saves never overtake each other.
export default function NewOrderLayout({ children }: { children: ReactNode }) {
  return <DraftStoreProvider>{children}</DraftStoreProvider>;
}
