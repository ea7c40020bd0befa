-- The subdomain pool kept a status and two fields naming an outside edge provider (a project id
-- and the host it served); Berth wrote them and never read them, since its edge is built in and a
-- row's state is is_assigned, assigned_site_id and the reservation.
ALTER TABLE "available_subdomains" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "available_subdomains" DROP COLUMN "edge_project_id";--> statement-breakpoint
ALTER TABLE "available_subdomains" DROP COLUMN "edge_domain";