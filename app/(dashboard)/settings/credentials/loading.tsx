import { LoadingRows, Skeleton } from "@/components/ui/states";

export default function Loading() {
  return (
    <>
      <Skeleton className="h-9 w-56" />
      <LoadingRows rows={4} label="Loading API credentials" />
    </>
  );
}
