DROP INDEX IF EXISTS "objects_class_created_idx";--> statement-breakpoint
CREATE INDEX "objects_class_created_idx" ON "objects" USING btree ("class_name","created_at","id") INCLUDE ("read_perm");--> statement-breakpoint
DROP INDEX IF EXISTS "objects_owner_created_idx";--> statement-breakpoint
CREATE INDEX "objects_owner_created_idx" ON "objects" USING btree ("class_name","owner_id","created_at","id") INCLUDE ("read_perm");
--> statement-breakpoint
ALTER TABLE "object_field_indexes" ADD COLUMN "removed_at" timestamp with time zone;
