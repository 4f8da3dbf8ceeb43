namespace :demo do
  desc 'Load demo data (resets the database first)'
  task load: :environment do
    conn = ActiveRecord::Base.connection
    conn.disable_referential_integrity do
      conn.tables.each do |t|
        next if t == 'schema_migrations'
        conn.drop_table(t, force: :cascade)
      end
    end
    Rake::Task['db:schema:load'].invoke

    Dir[Rails.root.join('db/demo/*.yml')].sort.each do |file|
      model = File.basename(file, '.yml').classify.constantize
      YAML.load_file(file).each { |attrs| model.create!(attrs) }
      puts "loaded #{model.name}"
    end
  end
end
