import { Skeleton } from "@/components/ui/states";

// Inside the wizard's layout, so the draft it holds survives the wait for the next step.
export default function Loading() {
  return (
    <div role="status" aria-label="Loading the step" className="flex flex-col gap-4">
      <Skeleton className="h-9 w-72" />
      <Skeleton className="h-8 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
