CREATE TABLE "required_books" (
	"subject" text NOT NULL,
	"course_number" text NOT NULL,
	"isbn" text NOT NULL,
	"title" text NOT NULL,
	"required" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "required_books_subject_course_number_isbn_pk" PRIMARY KEY("subject","course_number","isbn")
);
--> statement-breakpoint
CREATE TABLE "user_courses" (
	"user_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"course_number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_courses_user_id_subject_course_number_pk" PRIMARY KEY("user_id","subject","course_number")
);
--> statement-breakpoint
ALTER TABLE "user_courses" ADD CONSTRAINT "user_courses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "required_books_isbn_idx" ON "required_books" USING btree ("isbn");