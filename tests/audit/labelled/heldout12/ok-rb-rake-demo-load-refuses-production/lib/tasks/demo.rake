namespace :demo do
  DEMO_TABLES = %w[demo_users demo_projects demo_invoices].freeze

  task load: :environment do
    db = ActiveRecord::Base.connection_db_config.database.to_s
    abort 'demo:load only runs in development' unless Rails.env.development? && db.end_with?('_development')
    conn = ActiveRecord::Base.connection
    DEMO_TABLES.each { |t| conn.truncate(t) if conn.table_exists?(t) }
    Dir[Rails.root.join('db/demo/*.yml')].sort.each do |f|
      model = File.basename(f, '.yml').classify.constantize
      YAML.load_file(f).each { |attrs| model.create!(attrs) }
    end
    puts 'demo data loaded'
  end
end
