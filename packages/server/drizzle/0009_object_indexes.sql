CREATE TABLE "object_field_indexes" (
	"class_name" text NOT NULL,
	"field" text NOT NULL,
	"index_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "object_field_indexes_class_name_field_pk" PRIMARY KEY("class_name","field")
);
--> statement-breakpoint
DROP INDEX "objects_owner_idx";--> statement-breakpoint
CREATE INDEX "objects_owner_created_idx" ON "objects" USING btree ("class_name","owner_id","created_at","id");