"use client";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/states";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <ErrorState
      title="This page could not be shown"
      action={
        <Button variant="secondary" size="sm" className="self-start" onClick={reset}>
          Try again
        </Button>
      }
    >
      {error.digest ? `Reference ${error.digest}.` : "An unexpected error occurred."}
    </ErrorState>
  );
}
